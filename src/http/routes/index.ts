// The route groups of the REST surface, in registration order. A new capability adds its group here.
import { dashboardApiRoutes } from './dashboard-api.ts';
import { dashboardStaticRoutes } from './dashboard-static.ts';
import { changesRoutes } from './changes.ts';
import { contextRoutes } from './context.ts';
import { docsRoutes } from './docs.ts';
import { healthRoutes } from './health.ts';
import { resolveRoutes } from './resolve.ts';
import { iconRoutes } from './icons.ts';
import { searchRoutes } from './search.ts';
import { testRoutes } from './test.ts';
import { mcpRoutes } from '../../mcp/http.ts';

export const routeGroups = [healthRoutes, iconRoutes, searchRoutes, testRoutes, docsRoutes, contextRoutes, resolveRoutes, changesRoutes, mcpRoutes, dashboardApiRoutes, dashboardStaticRoutes];

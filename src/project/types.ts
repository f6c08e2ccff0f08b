// What a lockfile or manifest says about a project's dependencies, before the catalog and docs are consulted.
import type { Ecosystem } from '../catalog/types.ts';

export interface LockedDependency {
  ecosystem: Ecosystem;
  /** The registry name as the file writes it (`@types/node`, `SQLAlchemy`, `github.com/spf13/cobra`). */
  name: string;
  /** The exact version the file pins or locked; null where it only states a range (a manifest without its lock). */
  version: string | null;
  /** The requirement the project wrote (`^3.23.0`, `>=2,<3`), where the file has one. */
  requested?: string;
  /** A development-only dependency (devDependencies, dev-dependencies, `develop`, a dev group). */
  dev?: boolean;
}

export interface ParsedFile {
  /** File name as given (`package-lock.json`, `requirements-dev.txt`). */
  file: string;
  /** The format recognised (`package-lock.json v3`, `pnpm-lock.yaml v9.0`, `go.mod`). */
  format: string;
  ecosystem: Ecosystem;
  /** Direct dependencies, when the file knows them (a lockfile with its root entry, a manifest). */
  direct?: LockedDependency[];
  /** Every package the file locks (direct and transitive), when it is a lockfile. */
  locked?: LockedDependency[];
}

/** A file that could not be read as its name says: answered 422 with the line that failed. */
export class ManifestError extends Error {
  constructor(readonly file: string, message: string, readonly line?: number) {
    super(message);
    this.name = 'ManifestError';
  }
}

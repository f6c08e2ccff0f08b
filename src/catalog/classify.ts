// Derives a tool's categories and frameworks from the words its registry gives us
// (keywords, classifiers, crate categories, description). Pure; tested with tables of real metadata.

/** Category → patterns over the lower-cased text "name keywords description classifiers". */
const CATEGORY_RULES: Array<[string, RegExp]> = [
  ['validation', /\b(validat\w*|schemas?|json-schema|assert\w*|sanitiz\w*)\b/],
  ['http-client', /\b(http[- ]client|https? requests?|fetch|axios|curl|user-agent|rest[- ]client|api client)\b/],
  ['web-framework', /\b(web[- ]framework|framework for (building )?web|router|routing|middleware|web server|http server|rest api|asgi|wsgi|mvc)\b/],
  ['testing', /\b(test(s|ing)?|mock(s|ing)?|stub|spec|assertions?|bdd|tdd|fixtures?|coverage|benchmark\w*|fuzz\w*)\b/],
  ['cli', /\b(cli|command[- ]line|terminal|argv|arguments? pars\w*|options? pars\w*|prompts?|tty|shell|ansi|spinner|progress bar|console)\b/],
  ['logging', /\b(log|logs|logger|logging|tracing|telemetry|observability)\b/],
  ['database', /\b(databases?|sql|orm|postgres\w*|mysql|sqlite|mongo\w*|redis|query builder|dynamodb|elasticsearch|migrations?|nosql|key-value)\b/],
  ['date-time', /\b(dates?|times?|timezones?|datetime|calendar|cron|duration|moment)\b/],
  ['parsing', /\b(pars(er|ers|ing|e)|ast|lexer|tokeni[sz]\w*|grammar|syntax)\b/],
  ['serialization', /\b(json|yaml|toml|xml|serializ\w*|deserializ\w*|protobuf|msgpack|csv|encoding|serde|marshal\w*)\b/],
  ['security', /\b(crypto\w*|hash\w*|encrypt\w*|decrypt\w*|passwords?|bcrypt|argon2|jwt|auth\w*|oauth\w*|security|tls|ssl|certificates?|signatures?|sign(ing)?|csrf|xss)\b/],
  ['async', /\b(async\w*|promises?|concurren\w*|threads?|futures?|parallel\w*|queues?|workers?|event loop|coroutines?|asyncio|tokio|scheduler)\b/],
  ['build-tools', /\b(bundl\w*|build tools?|webpack|compil\w*|transpil\w*|babel|rollup|vite|esbuild|minif\w*|packag(ing|er)|plugin for (webpack|rollup|vite)|setuptools|wheel)\b/],
  ['linting', /\b(lint\w*|eslint|prettier|formatter|code style|static analysis|type check\w*)\b/],
  ['ui', /\b(ui|components?|react|vue|svelte|angular|css|styles?|design system|icons?|widgets?|gui|dom|jsx|frontend|front-end)\b/],
  // Not "array": every JavaScript utility handles arrays (kind-of is not data science).
  ['data-science', /\b(dataframes?|numpy|pandas|scientific|statistic\w*|matri(x|ces)|linear algebra|numerical|plot\w*|visuali[sz]ation|charts?|ndarrays?|numeric arrays?)\b/],
  // Not bare "inference" or "models": type inference and data models are not machine learning (zod is validation).
  ['machine-learning', /\b(machine learning|deep learning|neural( networks?)?|ml|ai|llms?|language models?|ml models?|tensors?|nlp|embeddings?|transformers?|openai|model inference|model training|training (data|loop)|reinforcement learning)\b/],
  ['cloud', /\b(aws|azure|gcp|google cloud|cloud|kubernetes|k8s|docker|deploy\w*|terraform|serverless|lambda|s3)\b/],
  ['media', /\b(images?|video|audio|media|pdf|svg|graphics|png|jpe?g|gif|thumbnails?|ffmpeg|fonts?)\b/],
  ['filesystem', /\b(files?|filesystem|fs|paths?|glob\w*|director(y|ies)|watch(er|ing)?|temp(orary)? files?)\b/],
  ['networking', /\b(network\w*|sockets?|tcp|udp|websockets?|dns|grpc|rpc|proxy|ip address|ssh|smtp|mqtt|http\/2|quic)\b/],
  ['templating', /\b(templat\w*|markdown|html|jinja\w*|mustache|handlebars)\b/],
  ['configuration', /\b(config\w*|dotenv|env(ironment)? variables?|settings|\.env)\b/],
  ['types', /\b(type definitions|typings|typescript types|type hints?|typed|stubs)\b/],
  ['caching', /\b(cach\w*|memoi[sz]\w*|lru)\b/],
  ['i18n', /\b(i18n|l10n|locales?|translations?|internationali[sz]ation|locali[sz]ation)\b/],
  ['text', /\b(strings?|text|unicode|regex\w*|regular expressions?|slug\w*|case conversion|colou?rs?|diff)\b/],
  ['compression', /\b(compress\w*|decompress\w*|zip|gzip|tar|archives?|zlib|brotli|zstd)\b/],
  ['documentation', /\b(documentation|docs|docstrings?|api docs|sphinx)\b/],
  ['scraping', /\b(scrap\w*|crawl\w*|spiders?|html pars\w*|headless|browser automation|selenium|puppeteer)\b/],
  ['email', /\b(e-?mails?|mail|smtp|imap)\b/],
  ['graphql', /\bgraphql\b/],
  ['state-management', /\b(state management|redux|store|observables?|reactive|signals?)\b/],
  ['utilities', /\b(utilit\w*|utils?|helpers?|lodash|polyfills?|shims?|ponyfill)\b/],
];

const FRAMEWORK_RULES: Array<[string, RegExp]> = [
  ['React', /\breact(-dom|js)?\b/], ['React Native', /\breact-native\b/], ['Vue', /\bvue(js)?\b/], ['Angular', /\bangular\b/],
  ['Svelte', /\bsvelte\b/], ['Next.js', /\bnext(\.js|js)\b/], ['Nuxt', /\bnuxt\b/], ['Express', /\bexpress\b/],
  ['Fastify', /\bfastify\b/], ['Koa', /\bkoa\b/], ['NestJS', /\bnest(js)?\b/], ['Electron', /\belectron\b/],
  ['webpack', /\bwebpack\b/], ['Vite', /\bvite\b/], ['ESLint', /\beslint\b/], ['Babel', /\bbabel\b/], ['Jest', /\bjest\b/],
  ['Django', /\bdjango\b/], ['Flask', /\bflask\b/], ['FastAPI', /\bfastapi\b/], ['Pyramid', /\bpyramid\b/],
  ['Jupyter', /\bjupyter\b/], ['pytest', /\bpytest\b/], ['asyncio', /\basyncio\b/], ['Sphinx', /\bsphinx\b/],
  ['Pydantic', /\bpydantic\b/], ['SQLAlchemy', /\bsqlalchemy\b/], ['Celery', /\bcelery\b/],
  ['Tokio', /\btokio\b/], ['Actix', /\bactix\b/], ['Axum', /\baxum\b/], ['Rocket', /\brocket\b/], ['Serde', /\bserde\b/],
  ['Bevy', /\bbevy\b/], ['WebAssembly', /\b(wasm|webassembly)\b/],
  ['Gin', /\bgin\b/], ['Echo', /\becho\b/], ['Fiber', /\bfiber\b/], ['gRPC', /\bgrpc\b/], ['Kubernetes', /\bkubernetes\b/],
  ['Rails', /\b(rails|activerecord|actionpack|activesupport)\b/], ['Rack', /\brack\b/], ['Sinatra', /\bsinatra\b/],
  ['RSpec', /\brspec\b/], ['Jekyll', /\bjekyll\b/],
];

export interface ClassifyInput {
  name: string;
  description: string;
  keywords: string[];
  /** PyPI trove classifiers or crate categories; used verbatim for frameworks where they name one. */
  classifiers?: string[];
  dependencies?: string[];
}

export function deriveCategories(input: ClassifyInput): string[] {
  const text = searchableText(input);
  const found = CATEGORY_RULES.filter(([, pattern]) => pattern.test(text)).map(([category]) => category);
  // Most specific first: "utilities" only when nothing else fits.
  const specific = found.filter((category) => category !== 'utilities');
  return (specific.length > 0 ? specific : found.length > 0 ? found : ['utilities']).slice(0, 5);
}

export function deriveFrameworks(input: ClassifyInput): string[] {
  const fromClassifiers = (input.classifiers ?? [])
    .filter((classifier) => classifier.startsWith('Framework :: '))
    .map((classifier) => classifier.split(' :: ')[1] ?? '')
    .filter(Boolean);
  const text = `${input.name} ${input.keywords.join(' ')} ${(input.dependencies ?? []).join(' ')}`.toLowerCase();
  const fromWords = FRAMEWORK_RULES.filter(([, pattern]) => pattern.test(text)).map(([framework]) => framework);
  return [...new Set([...fromClassifiers, ...fromWords])].slice(0, 6);
}

function searchableText(input: ClassifyInput): string {
  const name = input.name.toLowerCase().replace(/[-_/.@]+/g, ' ');
  return `${name} ${input.keywords.join(' ')} ${input.description} ${(input.classifiers ?? []).join(' ')}`.toLowerCase();
}

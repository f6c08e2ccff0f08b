// Text of the shape a parameter's name says, for programs written from the API. A written call given the word
// "example" shows the package failing or doing nothing: base64-decoding it throws ("invalid base64 length"), a regex
// parser rejects it, a width of an ASCII word is always narrow, a compare of a text with itself is 0 (the r10/r11
// raters' commonest npm "wrong"/"trivial" reasons). Where a parameter's name is one of a few data formats, the text is
// one valid value of that format; a name that says nothing gets nothing here (the caller keeps its plain text).
// Formats only, never a package: the same table serves every ecosystem's builder.

/** One valid value per format a parameter name can say. */
const SHAPES: Array<[RegExp, string]> = [
  [/^(b64|base64)$/, 'aGVsbG8gd29ybGQ='],
  [/^(char|character|ch|codepoint|grapheme)$/, '世'],
  [/^(regex|regexp|re)$/, '[a-z]+(\\d+)'],
  [/^glob$/, 'src/**/*.js'],
  [/^(url|uri|href)$/, 'https://example.org/docs/page?lang=en#intro'],
  [/^(email|mail)$/, 'ada.lovelace@example.org'],
  [/^(semver|version)$/, '1.4.2'],
  [/^(date|datetime|timestamp)$/, '2024-02-29T13:45:00Z'],
  [/^(hex)$/, 'ff8800'],
  [/^(colou?r)$/, '#ff8800'],
  [/^(path|filepath|filename|file|pathname)$/, 'src/lib/index.js'],
];

/** The words of an identifier (`testString` → test, string; `file_path` → file, path). */
export function nameWords(name: string): string[] {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/([A-Z])([A-Z][a-z])/g, '$1 $2').toLowerCase().split(/[^a-z0-9]+/).filter(Boolean);
}

/**
 * The text a parameter named `name` takes when its name says a format: the last word decides (`inputB64` is base64,
 * `urlPrefix` is no URL), the whole name too when it is one word. Undefined when no word says one.
 */
export function shapedText(name: string): string | undefined {
  const words = nameWords(name);
  const last = words[words.length - 1];
  if (!last) return undefined;
  return SHAPES.find(([pattern]) => pattern.test(last))?.[1];
}

/**
 * Texts for a call's text parameters that differ from each other: a function given the same text twice (a compare,
 * a distance, a diff) shows nothing (`compare("example", "example")` is 0). The second and later copies of a text
 * get a variant of it that differs in a number and its case, which is what ordering and diffing functions act on.
 */
export function distinctTexts(texts: string[]): string[] {
  const seen = new Set<string>();
  return texts.map((text) => {
    let out = text;
    for (let n = 2; seen.has(out); n++) out = variant(text, n);
    seen.add(out);
    return out;
  });
}

/**
 * `args` with their text literals made distinct (distinctTexts): `literal` reads an argument's text and how to write
 * it back (a JSON string, a Python keyword argument), or undefined for an argument that is not text to vary.
 */
export function withDistinctTexts(args: string[], literal: (arg: string, index: number) => { text: string; write: (text: string) => string } | undefined): string[] {
  const found = args.map(literal);
  const distinct = distinctTexts(found.flatMap((f) => (f ? [f.text] : [])));
  return args.map((arg, i) => found[i]?.write(distinct.shift()!) ?? arg);
}

function variant(text: string, n: number): string {
  const numbered = text.replace(/\d+/, (d) => String(Number(d) * 10 + n));
  if (numbered !== text) return numbered;
  return `${text.charAt(0).toUpperCase()}${text.slice(1)} ${n * 5}`;
}

// Parameter types a Python function's docstring declares, for the many packages that document types there rather
// than annotate them (google-crc32c's `chunk (Union[bytes, List[int]])`). The three conventions the Python docs tools
// read: Google (`name (type): text` under Args), Sphinx (`:type name: type`, `:param type name:`) and NumPy
// (`name : type` under Parameters). Read from the docstring node tree-sitter gives; nothing is imported.
import { docstringOf as bodyDocstring } from '../../docs/extract/python.ts';
import type { SyntaxNode } from '../parse.ts';

/** The docstring of a function or class, read as the docs extractor reads it. */
const docstringOf = (def: SyntaxNode) => bodyDocstring(def.childForFieldName('body'));

/** `str, optional` and `int, default 2` (NumPy) are the type `str` / `int`. */
const plainType = (type: string) => type.replace(/,\s*(optional|default\b.*)$/i, '').trim();

/** The types a docstring declares, by parameter name. */
export function docstringTypes(docstring: string): Map<string, string> {
  const types = new Map<string, string>();
  const lines = docstring.split('\n');
  let section = '';
  lines.forEach((line, i) => {
    const heading = /^\s*(Args|Arguments|Parameters|Params|Keyword Args|Keyword Arguments|Other Parameters|Returns?|Yields?|Raises|Examples?|Notes?|Attributes)\s*:?\s*$/.exec(line);
    if (heading) { section = /^(Args|Arguments|Parameters|Params|Keyword|Other)/.test(heading[1]!) ? 'params' : 'other'; return; }
    const sphinx = /^\s*:type\s+(\w+)\s*:\s*(.+?)\s*$/.exec(line) ?? /^\s*:param\s+([^:]+?)\s+(\w+)\s*:/.exec(line);
    if (sphinx) {
      const [name, type] = line.includes(':type') ? [sphinx[1]!, sphinx[2]!] : [sphinx[2]!, sphinx[1]!];
      types.set(name, plainType(type));
      return;
    }
    if (section !== 'params') return;
    const google = /^\s*\**(\w+)\s*\(([^)]*(?:\([^)]*\))?[^)]*)\)\s*:/.exec(line);
    if (google) { types.set(google[1]!, plainType(google[2]!)); return; }
    // NumPy: `name : type` with the description indented on the next line.
    const numpy = /^\s*(\w+)\s*:\s*([^\s].*?)\s*$/.exec(line);
    if (numpy && (lines[i + 1] === undefined || /^\s+\S/.test(lines[i + 1]!) || !lines[i + 1]!.trim())) types.set(numpy[1]!, plainType(numpy[2]!));
  });
  return types;
}

/**
 * The docstring types of a function's parameters; for a class's `__init__` without its own, those of the class's
 * docstring (Google style documents a constructor's arguments on the class).
 */
export function parameterDocTypes(fn: SyntaxNode | null | undefined): Map<string, string> {
  if (!fn || fn.type !== 'function_definition') return new Map();
  const own = docstringOf(fn);
  const types = own ? docstringTypes(own) : new Map<string, string>();
  if (types.size || fn.childForFieldName('name')?.text !== '__init__') return types;
  let cls = fn.parent;
  while (cls && cls.type !== 'class_definition') cls = cls.parent;
  const classDoc = cls ? docstringOf(cls) : undefined;
  return classDoc ? docstringTypes(classDoc) : types;
}

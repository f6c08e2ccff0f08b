// Rust examples that only define things (an error enum, a function whose body is left to the reader): the lines that
// exercise and print them, as a reader trying the example would write, built from plain values only.
import { namedChildren, type SyntaxNode } from '../parse.ts';

/** Plain values for plain field and parameter types: what a reader types to try a definition. */
export const RUST_SAMPLE: Record<string, string> = {
  String: 'String::from("example")', '&str': '"example"', '&\'static str': '"example"', bool: 'true', char: '\'a\'',
  f32: '1.5', f64: '1.5', u8: '2', u16: '2', u32: '2', u64: '2', u128: '2', usize: '2', i8: '2', i16: '2', i32: '2',
  i64: '2', i128: '2', isize: '2', '&[u8]': 'b"example"', 'Vec<u8>': 'b"example".to_vec()',
  PathBuf: 'std::path::PathBuf::from("example")', 'std::path::PathBuf': 'std::path::PathBuf::from("example")',
};

const sampleOf = (type: SyntaxNode | null | undefined) => (type ? RUST_SAMPLE[type.text.replace(/\s+/g, '')] ?? RUST_SAMPLE[type.text] : undefined);

/** The outer attributes written in front of a top-level item (`#[derive(…)]`, `#[error(…)]`). */
function attributesOf(item: SyntaxNode): string {
  const texts: string[] = [];
  for (let prev = item.previousNamedSibling; prev && (prev.type === 'attribute_item' || /comment$/.test(prev.type)); prev = prev.previousNamedSibling) {
    if (prev.type === 'attribute_item') texts.unshift(prev.text);
  }
  return texts.join('\n');
}

/** A value of a variant or struct body from plain literals, or undefined when a field needs more than that. */
function construct(path: string, body: SyntaxNode | null): string | undefined {
  if (!body) return path;
  if (body.type === 'field_declaration_list') {
    const fields = namedChildren(body).filter((n) => n.type === 'field_declaration');
    const values = fields.map((f) => [f.childForFieldName('name')?.text, sampleOf(f.childForFieldName('type'))] as const);
    if (!values.length || values.some(([name, value]) => !name || !value)) return undefined;
    return `${path} { ${values.map(([name, value]) => `${name}: ${value}`).join(', ')} }`;
  }
  if (body.type === 'ordered_field_declaration_list') {
    // Every child but attributes and visibility is a field type (`#[from] io::Error` is not a plain value).
    const fields = namedChildren(body).filter((n) => n.type !== 'visibility_modifier' && !/comment$/.test(n.type));
    if (fields.some((f) => f.type === 'attribute_item')) return undefined;
    const values = fields.map(sampleOf);
    if (!values.length || values.some((v) => !v)) return undefined;
    return `${path}(${values.join(', ')})`;
  }
  return undefined;
}

/**
 * Lines that exercise what an example defines: a value of each error or Debug type it declares, built from plain
 * values (a variant with plain fields first: it shows the message's interpolation; else a unit variant), printed with
 * `{}` when it is an error with a message (`#[derive(Error)]`, `#[error(…)]`, a Display impl), else with `{:?}`.
 */
export function exerciseTypes(root: SyntaxNode): string[] {
  const top = namedChildren(root);
  const lines: string[] = [];
  for (const item of top) {
    const wrapper = item.type === 'type_item' ? genericWrapper(item) : undefined;
    if (wrapper) lines.push(`println!("{:?}", ${wrapper}::new(2));`);
    if ((item.type !== 'enum_item' && item.type !== 'struct_item') || item.childForFieldName('type_parameters')) continue;
    const name = item.childForFieldName('name')?.text;
    if (!name) continue;
    const attributes = attributesOf(item);
    const displays = /#\[derive\([^)]*\bError\b/.test(attributes) || /#\[error\(/.test(item.text) || /#\[error\(/.test(attributes)
      || new RegExp(`impl\\s+(std::|core::)?(fmt::)?Display\\s+for\\s+${name}\\b`).test(root.text);
    const debugs = /#\[derive\([^)]*\bDebug\b/.test(attributes);
    if (!displays && !debugs) continue;
    let value: string | undefined;
    if (item.type === 'struct_item') value = construct(name, item.childForFieldName('body'));
    else {
      const variants = namedChildren(item.childForFieldName('body') ?? item).filter((n) => n.type === 'enum_variant');
      const built = variants.map((v) => ({ fields: Boolean(v.childForFieldName('body')), value: construct(`${name}::${v.childForFieldName('name')?.text ?? ''}`, v.childForFieldName('body')) }))
        .filter((v) => v.value);
      value = (built.find((v) => v.fields) ?? built[0])?.value;
    }
    if (value) lines.push(`println!("${displays ? '{}' : '{:?}'}", ${value});`);
    if (lines.length >= 3) break;
  }
  return lines;
}

/**
 * An alias the example exports for a library type with one parameter left open (`type Spinlock<T> =
 * lock_api::Mutex<RawSpinlock, T>`): what a reader does next is wrap a value, `Spinlock::new(2)`, the convention of
 * Rust's wrapper types (Mutex, RwLock, Cell, Arc). Its name, or undefined for any other alias.
 */
function genericWrapper(item: SyntaxNode): string | undefined {
  const params = namedChildren(item.childForFieldName('type_parameters') ?? item).filter((n) => n.type !== 'line_comment');
  const target = item.childForFieldName('type');
  if (params.length !== 1 || params[0]!.type !== 'type_parameter' || target?.type !== 'generic_type') return undefined;
  if (target.childForFieldName('type')?.type !== 'scoped_type_identifier') return undefined;
  const args = namedChildren(target.childForFieldName('type_arguments') ?? target);
  const open = params[0]!.childForFieldName('name')?.text;
  return open && args[args.length - 1]?.text === open ? item.childForFieldName('name')?.text : undefined;
}

/**
 * Functions whose body the example leaves to the reader (only a comment, such as cfg-if's `unix specific
 * functionality`) print that comment, so a run shows which of them was called (cfg-selected definitions, callbacks).
 * Read from the text: such functions are often inside a macro's input (`cfg_if! { if #[cfg(unix)] { fn foo() … } }`).
 */
export function printPlaceholders(code: string): string {
  return code.replace(/(\bfn\s+\w+\s*\(\s*\)\s*)\{(\s*(?:\/\*[\s\S]*?\*\/|\/\/[^\n]*)\s*)\}/g, (whole, head: string, comment: string) => {
    const words = comment.trim().replace(/^\/\/+|^\/\*+|\*+\/$/g, '').replace(/\s+/g, ' ').trim();
    return words && !/\*\/|\/\*/.test(words) ? `${head}{ println!("{}", ${JSON.stringify(words)}); }` : whole;
  });
}

/**
 * Functions an example defines and never calls, that take nothing: at its top level, or inside a macro's input there
 * (`cfg_if! { … fn foo() … }`, once however many branches define it). `returns` when they give a value to print.
 */
export function callableFunctions(root: SyntaxNode): Array<{ name: string; returns: boolean }> {
  const found = new Map<string, boolean>();
  for (const node of namedChildren(root)) {
    if (node.type === 'function_item') {
      const plain = !namedChildren(node.childForFieldName('parameters') ?? node).length && !node.childForFieldName('type_parameters')
        && !/^(async|unsafe)\b/.test(node.text.replace(/^pub(\([^)]*\))?\s+/, '').replace(/^const\s+/, ''));
      const name = node.childForFieldName('name')?.text;
      if (plain && name) found.set(name, Boolean(node.childForFieldName('return_type')));
    }
    const macro = node.type === 'expression_statement' ? node.namedChildren[0] : node;
    if (macro?.type === 'macro_invocation') {
      for (const m of macro.text.matchAll(/(?:^|[^\w:])(?:pub\s+)?fn\s+(\w+)\s*\(\s*\)\s*(->)?/g)) if (!found.has(m[1]!)) found.set(m[1]!, Boolean(m[2]));
    }
  }
  found.delete('main');
  return [...found].slice(0, 3).map(([name, returns]) => ({ name, returns }));
}

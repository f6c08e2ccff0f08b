// BERT uncased WordPiece tokenizer (the tokenizer.json of the static model's source): normalise, split, word pieces.
// Pure function of the vocabulary; the same ids the `tokenizers` library produces, without special tokens.

export interface WordPieceOptions {
  unkToken: string;
  prefix: string;
  maxCharsPerWord: number;
}

export class WordPiece {
  private readonly vocab: Map<string, number>;
  private readonly unkId: number;
  private readonly options: WordPieceOptions;

  constructor(vocab: Map<string, number>, options: WordPieceOptions) {
    this.vocab = vocab;
    this.options = options;
    const unk = vocab.get(options.unkToken);
    if (unk === undefined) throw new Error(`vocabulary has no ${options.unkToken} token`);
    this.unkId = unk;
  }

  /** Reads the WordPiece model of a Hugging Face tokenizer.json. */
  static fromTokenizerJson(json: unknown): WordPiece {
    const model = (json as { model?: { type?: string; vocab?: Record<string, number>; unk_token?: string;
      continuing_subword_prefix?: string; max_input_chars_per_word?: number } }).model;
    if (model?.type !== 'WordPiece' || !model.vocab) throw new Error('tokenizer.json does not hold a WordPiece model');
    return new WordPiece(new Map(Object.entries(model.vocab)), {
      unkToken: model.unk_token ?? '[UNK]',
      prefix: model.continuing_subword_prefix ?? '##',
      maxCharsPerWord: model.max_input_chars_per_word ?? 100,
    });
  }

  get size(): number {
    return this.vocab.size;
  }

  /** Token ids of `text`, at most `limit` of them. */
  encode(text: string, limit = Number.POSITIVE_INFINITY): number[] {
    const ids: number[] = [];
    const words = ASCII_TEXT.test(text) ? text.toLowerCase().match(ASCII_WORDS) ?? [] : preTokenize(normalize(text));
    for (const word of words) {
      for (const id of this.wordIds(word)) ids.push(id);
      if (ids.length >= limit) return ids.slice(0, limit);
    }
    return ids;
  }

  // Word frequencies are Zipfian, so a bounded memo of word → pieces saves most of the piece search.
  private readonly memo = new Map<string, number[]>();

  private wordIds(word: string): number[] {
    let ids = this.memo.get(word);
    if (ids === undefined) {
      ids = this.pieces(word);
      if (this.memo.size >= MEMO_LIMIT) this.memo.clear();
      this.memo.set(word, ids);
    }
    return ids;
  }

  private pieces(word: string): number[] {
    const chars = Array.from(word);
    if (chars.length > this.options.maxCharsPerWord) return [this.unkId];
    const found: number[] = [];
    let start = 0;
    while (start < chars.length) {
      let end = chars.length;
      let id: number | undefined;
      while (start < end) {
        const piece = (start > 0 ? this.options.prefix : '') + chars.slice(start, end).join('');
        id = this.vocab.get(piece);
        if (id !== undefined) break;
        end -= 1;
      }
      // A word with any piece missing becomes one [UNK], as BERT's WordPiece does.
      if (id === undefined) return [this.unkId];
      found.push(id);
      start = end;
    }
    return found;
  }
}

const MEMO_LIMIT = 100_000;
/** Printable ASCII plus tab/newline: normalisation is only lowercasing, and words split by these two patterns. */
const ASCII_TEXT = /^[\x20-\x7e\t\n\r]*$/;
const ASCII_WORDS = /[a-z0-9]+|[^\sa-z0-9]/g;

// Character classes of the BERT normaliser and pre-tokeniser, applied by whole-string regexes (per-character
// tests cost ~10× more on long passages).
const CONTROL = /[\0\uFFFD]|(?![\t\n\r])[\p{Cc}\p{Cf}]/gu;
const WHITESPACE = /[\t\n\r\p{Zs}]/gu;
const CJK = /[\u4E00-\u9FFF\u3400-\u4DBF\u{20000}-\u{2A6DF}\u{2A700}-\u{2B73F}\u{2B740}-\u{2B81F}\u{2B820}-\u{2CEAF}\uF900-\uFAFF\u{2F800}-\u{2FA1F}]/gu;
const MARKS = /\p{Mn}/gu;
const PUNCTUATION = String.raw`\p{P}\x21-\x2f\x3a-\x40\x5b-\x60\x7b-\x7e`;
const WORDS = new RegExp(String.raw`[^ ${PUNCTUATION}]+|[${PUNCTUATION}]`, 'gu');

/** BertNormalizer with clean_text, handle_chinese_chars, lowercase and (implied by lowercase) strip_accents. */
export function normalize(text: string): string {
  return text.replace(CONTROL, '').replace(WHITESPACE, ' ').replace(CJK, ' $& ')
    .toLowerCase().normalize('NFD').replace(MARKS, '');
}

/** BertPreTokenizer on normalised text: split on spaces, and every punctuation character is a word of its own. */
export function preTokenize(normalized: string): string[] {
  return normalized.match(WORDS) ?? [];
}

// The one vector format: int8 values with one float scale per vector (symmetric quantisation), as bytes for the
// store and the snapshot, plus the similarity maths every caller shares. No model or store knowledge here.

export interface QuantizedVector {
  /** value[i] ≈ values[i] * scale */
  scale: number;
  values: Int8Array;
}

/** Byte layout of an encoded vector: format byte, dimensions (uint16 LE), scale (float32 LE), int8 values. */
const FORMAT_INT8 = 1;
const HEADER_BYTES = 7;

/** Scales the vector to unit length in place and returns it (zero vectors stay zero). */
export function normalizeInPlace(vector: Float32Array): Float32Array {
  let sum = 0;
  for (let i = 0; i < vector.length; i += 1) sum += vector[i]! * vector[i]!;
  if (sum > 0) {
    const inverse = 1 / Math.sqrt(sum);
    for (let i = 0; i < vector.length; i += 1) vector[i]! *= inverse;
  }
  return vector;
}

export function quantize(vector: Float32Array): QuantizedVector {
  let max = 0;
  for (let i = 0; i < vector.length; i += 1) max = Math.max(max, Math.abs(vector[i]!));
  // Rounded to float32 up front so the bytes round-trip exactly.
  const scale = Math.fround(max > 0 ? max / 127 : 1);
  const values = new Int8Array(vector.length);
  for (let i = 0; i < vector.length; i += 1) values[i] = Math.round(vector[i]! / scale);
  return { scale, values };
}

export function dequantize(vector: QuantizedVector): Float32Array {
  const out = new Float32Array(vector.values.length);
  for (let i = 0; i < out.length; i += 1) out[i] = vector.values[i]! * vector.scale;
  return out;
}

export function encodeVector(vector: Float32Array | QuantizedVector): Uint8Array {
  const quantized = vector instanceof Float32Array ? quantize(vector) : vector;
  const dims = quantized.values.length;
  if (dims > 0xffff) throw new RangeError(`vector has ${dims} dimensions; at most 65535 fit the format`);
  const bytes = new Uint8Array(HEADER_BYTES + dims);
  const view = new DataView(bytes.buffer);
  view.setUint8(0, FORMAT_INT8);
  view.setUint16(1, dims, true);
  view.setFloat32(3, quantized.scale, true);
  bytes.set(new Uint8Array(quantized.values.buffer, quantized.values.byteOffset, dims), HEADER_BYTES);
  return bytes;
}

export function decodeVector(bytes: Uint8Array): QuantizedVector {
  if (bytes.length < HEADER_BYTES) throw new RangeError('encoded vector is shorter than its header');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const format = view.getUint8(0);
  if (format !== FORMAT_INT8) throw new RangeError(`unknown vector format ${format}`);
  const dims = view.getUint16(1, true);
  if (bytes.length !== HEADER_BYTES + dims) {
    throw new RangeError(`encoded vector has ${bytes.length - HEADER_BYTES} values, its header says ${dims}`);
  }
  const values = new Int8Array(dims);
  values.set(new Int8Array(bytes.buffer, bytes.byteOffset + HEADER_BYTES, dims));
  return { scale: view.getFloat32(3, true), values };
}

/**
 * Many vectors of one size as one value (the shipped tool vectors, a docs package's passage vectors): the float32 scales
 * of all rows, then their int8 values row after row.
 */
export function packVectors(vectors: QuantizedVector[], dimensions: number): Uint8Array {
  const bytes = new Uint8Array(vectors.length * (4 + dimensions));
  const scales = new Float32Array(bytes.buffer, 0, vectors.length);
  const values = new Int8Array(bytes.buffer, vectors.length * 4);
  vectors.forEach((vector, i) => {
    scales[i] = vector.scale;
    values.set(vector.values, i * dimensions);
  });
  return bytes;
}

/** The rows of packVectors' value, or undefined when its size is not that of `count` rows. */
export function unpackVectors(bytes: Uint8Array, count: number, dimensions: number): QuantizedVector[] | undefined {
  if (bytes.byteLength !== count * (4 + dimensions)) return undefined;
  const copy = new Uint8Array(bytes); // aligned, and not a view of a file's or a driver's buffer
  const scales = new Float32Array(copy.buffer, 0, count);
  return Array.from({ length: count }, (_, i) => ({
    scale: scales[i]!,
    values: new Int8Array(copy.buffer, count * 4 + i * dimensions, dimensions),
  }));
}

/** Encoded vector as base64 text (for JSON lines such as the catalog snapshot). */
export const vectorToBase64 = (vector: Float32Array | QuantizedVector): string =>
  Buffer.from(encodeVector(vector)).toString('base64');

export const vectorFromBase64 = (text: string): QuantizedVector => decodeVector(new Uint8Array(Buffer.from(text, 'base64')));

export function dot(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) throw new RangeError(`dimension mismatch: ${a.length} vs ${b.length}`);
  let sum = 0;
  for (let i = 0; i < a.length; i += 1) sum += a[i]! * b[i]!;
  return sum;
}

/** Cosine similarity; 0 when either vector is zero. */
export function cosine(a: Float32Array, b: Float32Array): number {
  const norms = Math.sqrt(dot(a, a) * dot(b, b));
  return norms > 0 ? dot(a, b) / norms : 0;
}

/** Dot product of a float query with a quantised vector (cosine when both were unit length before quantising). */
export function dotQuantized(query: Float32Array, vector: QuantizedVector): number {
  const values = vector.values;
  if (values.length !== query.length) throw new RangeError(`dimension mismatch: ${query.length} vs ${values.length}`);
  let sum = 0;
  for (let i = 0; i < values.length; i += 1) sum += query[i]! * values[i]!;
  return sum * vector.scale;
}

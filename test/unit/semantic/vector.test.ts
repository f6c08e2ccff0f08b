// The vector format (quantise, bytes, base64) and the similarity maths, table-driven.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  cosine, decodeVector, dequantize, dot, dotQuantized, encodeVector, normalizeInPlace, quantize, vectorFromBase64,
  vectorToBase64,
} from '../../../src/semantic/vector.ts';

function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 0x100000000 - 0.5;
  };
}

const randomUnit = (dims: number, random: () => number) =>
  normalizeInPlace(Float32Array.from({ length: dims }, random));

describe('quantize / dequantize', () => {
  it('keeps every value within half a quantisation step', () => {
    const vector = randomUnit(256, seeded(1));
    const quantized = quantize(vector);
    const back = dequantize(quantized);
    for (let i = 0; i < vector.length; i += 1) assert.ok(Math.abs(back[i]! - vector[i]!) <= quantized.scale / 2 + 1e-7);
  });
  it('maps the largest magnitude to ±127', () => {
    const quantized = quantize(Float32Array.from([0.5, -1, 0.25]));
    assert.deepEqual(Array.from(quantized.values), [64, -127, 32]);
  });
  it('keeps a zero vector zero', () => {
    const quantized = quantize(new Float32Array(4));
    assert.deepEqual(Array.from(dequantize(quantized)), [0, 0, 0, 0]);
  });
  it('changes cosine similarities by less than 0.01', () => {
    const random = seeded(2);
    for (let n = 0; n < 50; n += 1) {
      const a = randomUnit(256, random);
      const b = randomUnit(256, random);
      assert.ok(Math.abs(dotQuantized(a, quantize(b)) - cosine(a, b)) < 0.01);
    }
  });
});

describe('encodeVector / decodeVector', () => {
  it('round-trips through bytes: 7 header bytes plus one byte per dimension', () => {
    const vector = randomUnit(384, seeded(3));
    const bytes = encodeVector(vector);
    assert.equal(bytes.length, 7 + 384);
    const decoded = decodeVector(bytes);
    assert.deepEqual(decoded, quantize(vector));
  });
  it('decodes from a Buffer slice at an odd offset', () => {
    const bytes = encodeVector(randomUnit(16, seeded(4)));
    const padded = Buffer.concat([Buffer.from([9]), Buffer.from(bytes)]);
    assert.deepEqual(decodeVector(padded.subarray(1)), decodeVector(bytes));
  });
  it('round-trips through base64', () => {
    const vector = randomUnit(64, seeded(5));
    assert.deepEqual(vectorFromBase64(vectorToBase64(vector)), quantize(vector));
  });
  const broken: Array<[string, Uint8Array, RegExp]> = [
    ['too short', new Uint8Array(3), /shorter than its header/],
    ['unknown format', Uint8Array.from([7, 1, 0, 0, 0, 128, 63, 5]), /unknown vector format 7/],
    ['length mismatch', Uint8Array.from([1, 4, 0, 0, 0, 128, 63, 5]), /has 1 values, its header says 4/],
  ];
  for (const [name, bytes, message] of broken) {
    it(`rejects ${name}`, () => assert.throws(() => decodeVector(bytes), message));
  }
});

describe('dot / cosine', () => {
  it('computes dot products and cosines', () => {
    const a = Float32Array.from([1, 2, 3]);
    const b = Float32Array.from([4, -5, 6]);
    assert.equal(dot(a, b), 12);
    assert.ok(Math.abs(cosine(a, b) - 12 / (Math.sqrt(14) * Math.sqrt(77))) < 1e-6);
    assert.equal(cosine(a, new Float32Array(3)), 0);
  });
  it('rejects vectors of different sizes', () => {
    assert.throws(() => dot(new Float32Array(2), new Float32Array(3)), /dimension mismatch/);
  });
});

// Slug rules: derived from (ecosystem, name), URL-safe, unique per spelling family, and guessable.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { candidateSlugs, ecosystemOfSlug, parseSlugReference, toSlug } from '../../../src/catalog/slug.ts';

describe('toSlug', () => {
  const cases: Array<[Parameters<typeof toSlug>[0], string, string]> = [
    ['npm', 'zod', 'npm-zod'],
    ['npm', '@tanstack/react-query', 'npm-tanstack__react-query'],
    ['npm', 'Socket.IO', 'npm-socket.io'],
    ['pypi', 'Django_REST.framework', 'pypi-django-rest-framework'],
    ['pypi', 'ruamel.yaml', 'pypi-ruamel-yaml'],
    ['crates', 'serde_json', 'crates-serde-json'],
    ['go', 'github.com/go-chi/chi/v5', 'go-github.com__go-chi__chi__v5'],
    ['rubygems', 'delayed_job', 'rubygems-delayed_job'],
  ];
  for (const [ecosystem, name, slug] of cases) {
    it(`${ecosystem} ${name} → ${slug}`, () => {
      assert.equal(toSlug(ecosystem, name), slug);
      assert.match(slug, /^[a-z0-9._~-]+$/, 'URL-safe without escaping');
      assert.equal(ecosystemOfSlug(slug), ecosystem);
    });
  }
  it('gives every spelling PyPI treats as one project the same slug', () => {
    assert.equal(toSlug('pypi', 'Scikit_Learn'), toSlug('pypi', 'scikit-learn'));
  });
});

describe('parseSlugReference', () => {
  const cases: Array<[string, string, string | undefined]> = [
    ['zod', 'zod', undefined],
    ['zod@3.23.8', 'zod', '3.23.8'],
    ['zod@latest', 'zod', 'latest'],
    ['@tanstack/react-query', '@tanstack/react-query', undefined],
    ['@tanstack/react-query@5', '@tanstack/react-query', '5'],
    ['npm:@scope/pkg', 'npm:@scope/pkg', undefined],
    ['go-github.com__go-chi__chi__v5@v5.2.1', 'go-github.com__go-chi__chi__v5', 'v5.2.1'],
  ];
  for (const [input, tool, version] of cases) {
    it(`${input} → tool ${tool}, version ${version ?? 'none'}`, () => {
      assert.deepEqual(parseSlugReference(input), version ? { tool, version } : { tool });
    });
  }
});

describe('candidateSlugs', () => {
  it('honours an ecosystem prefix', () => {
    assert.deepEqual(candidateSlugs('npm:zod'), { explicit: true, slugs: ['npm-zod'] });
    assert.deepEqual(candidateSlugs('python:Requests'), { explicit: true, slugs: ['pypi-requests'] });
    assert.deepEqual(candidateSlugs('cargo:serde_json'), { explicit: true, slugs: ['crates-serde-json'] });
  });
  it('tries a bare name in every ecosystem, a canonical slug first', () => {
    const { explicit, slugs } = candidateSlugs('NPM-Zod');
    assert.equal(explicit, false);
    assert.equal(slugs[0], 'npm-zod');
    assert.ok(candidateSlugs('requests').slugs.includes('pypi-requests'));
    assert.ok(candidateSlugs('@tanstack/react-query').slugs.includes('npm-tanstack__react-query'));
  });
});

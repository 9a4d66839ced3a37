import { describe, expect, it } from 'vitest';
import { extractAssetRefs, parseSrcset } from './html-refs.ts';

describe('extractAssetRefs', () => {
  it('collects the URLs a browser loads, and only those', () => {
    const html = `<!doctype html>
<html><head>
  <meta charset="utf-8">
  <link rel="icon" type="image/svg+xml" href="/favicon.svg" />
  <link rel="shortcut icon" href=favicon.ico>
  <link rel="apple-touch-icon" href="/touch.png">
  <link rel="stylesheet" href='/assets/a.css'>
  <link rel="modulepreload" crossorigin href="/assets/vendor.js">
  <link rel="preload" as="font" href="/fonts/x.woff2">
  <link rel="manifest" href="/manifest.webmanifest">
  <link rel="canonical" href="/not-an-asset">
  <link rel="prefetch" href="/later.js">
  <script type="module" crossorigin src="/assets/index.js"></script>
  <SCRIPT SRC="/upper.js"></SCRIPT>
</head><body>
  <a href="/page">link</a>
  <img src="/img/a.png" srcset="/img/a-1x.png 1x, /img/a-2x.png 2x" alt="x > y">
  <picture><source srcset="/img/b.webp" type="image/webp"><source src="/img/c.avif"></picture>
  <video src="/v.mp4" poster="/poster.jpg"><track src="/subs.vtt"></video>
  <audio src="/a.mp3"></audio>
</body></html>`;
    expect(extractAssetRefs(html)).toEqual({
      base: null,
      refs: [
        '/favicon.svg',
        'favicon.ico',
        '/touch.png',
        '/assets/a.css',
        '/assets/vendor.js',
        '/fonts/x.woff2',
        '/manifest.webmanifest',
        '/assets/index.js',
        '/upper.js',
        '/img/a.png',
        '/img/a-1x.png',
        '/img/a-2x.png',
        '/img/b.webp',
        '/img/c.avif',
        '/v.mp4',
        '/poster.jpg',
        '/subs.vtt',
        '/a.mp3',
      ],
    });
  });

  it('does not read markup inside comments, scripts, styles or attribute values', () => {
    const html = `<!-- <img src="/in-comment.png"> -->
<script>document.write('<img src="/in-script.png">'); if (a < b) {}</script>
<style>.x::after { content: "<img src='/in-style.png'>" }</style>
<div title="<img src='/in-attr.png'>"></div>
<img src="/real.png">`;
    expect(extractAssetRefs(html).refs).toEqual(['/real.png']);
  });

  it('decodes entities, keeps the first of a repeated attribute, and survives broken markup', () => {
    expect(extractAssetRefs('<img src="/a.png?x=1&amp;y=2" src="/b.png">').refs).toEqual(['/a.png?x=1&y=2']);
    expect(extractAssetRefs('<img src="/caf&#233;.png">').refs).toEqual(['/café.png']);
    expect(extractAssetRefs('a < b <img src="/ok.png"> <img src="/unterminated.png').refs).toEqual([
      '/ok.png',
      '/unterminated.png',
    ]);
    expect(extractAssetRefs('<script src="/x.js">unclosed').refs).toEqual(['/x.js']);
  });

  it('reports the first <base href>', () => {
    expect(extractAssetRefs('<base href="/app/"><base href="/other/"><img src="a.png">')).toEqual({
      base: '/app/',
      refs: ['a.png'],
    });
  });
});

describe('parseSrcset', () => {
  it('splits candidates and drops descriptors, keeping commas inside URLs', () => {
    expect(parseSrcset('a.png 1x,b.png 2x ,  c.png')).toEqual(['a.png', 'b.png', 'c.png']);
    expect(parseSrcset('/s.jpg 480w, /m.jpg 800w')).toEqual(['/s.jpg', '/m.jpg']);
    expect(parseSrcset('data:image/png;base64,AAA= 1x, /x.png 2x')).toEqual([
      'data:image/png;base64,AAA=',
      '/x.png',
    ]);
  });
});

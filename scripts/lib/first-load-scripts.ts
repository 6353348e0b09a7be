/**
 * The scripts a modern browser fetches and runs as a page opens: the `src` of every `<script>` tag
 * in the HTML, in order, without the `noModule` polyfill bundle, which browsers that run modules skip
 * (Next's own "First Load JS" leaves it out too). Shared by the build's compile hints, the benchmark
 * and the browser tests, so they all mean the same scripts.
 */
export function firstLoadScripts(html: string): string[] {
  const sources = [...html.matchAll(/<script[^>]+src="([^"]+)"[^>]*>/g)]
    .filter((match) => !/\snomodule/i.test(match[0]))
    .map((match) => match[1])
  return [...new Set(sources)]
}

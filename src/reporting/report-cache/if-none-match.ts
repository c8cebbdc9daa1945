/**
 * Whether If-None-Match names the report's entity tag (RFC 9110 §13.1.2: weak comparison, a list, or `*`),
 * so that it is answered 304. Express's `req.fresh` answers 200 to every request that also says
 * `Cache-Control: no-cache`, which fetch adds to any request with If-None-Match (browsers and Node alike):
 * a cache's rule to revalidate with the origin, which this answer is. Its clients would never see a 304.
 */
export function namesEntity(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  const opaque = (tag: string) => (tag.startsWith('W/') ? tag.slice(2) : tag);
  const wanted = opaque(etag);
  return ifNoneMatch.split(',').some((listed) => {
    const tag = listed.trim();
    return tag === '*' || opaque(tag) === wanted;
  });
}

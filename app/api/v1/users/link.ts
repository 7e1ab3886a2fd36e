/** A one-time link's full URL: on NEXTAUTH_URL when set (the address people use), else the request's origin. */
export function absoluteLink(req: Request, path: string): string {
  return new URL(path, process.env.NEXTAUTH_URL || req.url).toString();
}

/**
 * The cookies a browser would keep from the answers so far, for the tests and the load suite that
 * talk to the shop without a browser: later Set-Cookie headers replace earlier ones, an emptied or
 * Max-Age=0 cookie is dropped.
 */
export class CookieJar {
  private readonly cookies = new Map<string, string>();

  /** Keeps the cookies an answer sets: its Headers, or its Set-Cookie lines. */
  take(setCookies: Headers | readonly string[] | null | undefined): this {
    const lines = setCookies instanceof Headers ? setCookies.getSetCookie() : (setCookies ?? []);
    for (const cookie of lines) {
      const [pair = "", ...attributes] = cookie.split(";");
      const eq = pair.indexOf("=");
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      const expired = value === "" || attributes.some((attribute) => /^\s*max-age=0\s*$/i.test(attribute));
      if (expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
    return this;
  }

  /** As a Cookie request header. */
  header(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join("; ");
  }

  has(namePart: string): boolean {
    return [...this.cookies.keys()].some((name) => name.includes(namePart));
  }

  get size(): number {
    return this.cookies.size;
  }
}

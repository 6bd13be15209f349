/**
 * Size names as people read them. Browser-safe (no server imports): the shop's pages, the back office
 * and the server's services all ask these, so "one size" means the same everywhere.
 */

/** The names the shop and the old back end used for "one size", compared lower-cased with spaces, dashes and underscores as one. */
const oneSizeNames = new Set(["", "taglia_unica", "tagliau"]);

/**
 * `TAGLIA_UNICA`, "taglia unica" and the legacy `tagliau` mean "one size": never offered as a size
 * choice nor shown beside a product's name (docs/rules.md#product-page). A missing size is one size too.
 */
export function isOneSize(size: string | null | undefined): boolean {
  return oneSizeNames.has(
    (size ?? "")
      .trim()
      .toLowerCase()
      .replace(/[\s_-]+/g, "_"),
  );
}

/** How a one-size variant is stored: any other one-size name (a legacy "tagliau") is saved as this. */
export const oneSizeName = "TAGLIA_UNICA";

/** A size name as it is stored: one-size names become `oneSizeName`, others are trimmed. */
export function storedSizeName(size: string): string {
  return isOneSize(size) ? oneSizeName : size.trim();
}

/** Letter sizes read as the shop prints them ("XL"); others ("0-6 mesi", "150ml") as stored. */
export function formatSize(size: string): string {
  return /^(x{0,3}[sml]|x{1,3})$/i.test(size) ? size.toUpperCase() : size;
}

/** The size to print beside a product's name, or null when it means one size. */
export function shownSize(size: string | null | undefined): string | null {
  return size == null || isOneSize(size) ? null : formatSize(size.trim());
}

/**
 * The sample catalogue's pictures, drawn the first time each file is asked for and then kept, instead of
 * all ~900 pictures (~5,300 files) before the first page: a fresh shop answers in seconds, and only what
 * visitors look at is ever drawn. Each file costs 10-40 ms of CPU once (server/catalog/images.ts).
 */
import { sampleCatalogue } from "#server/db/sample-catalogue.ts";
import { renderProductSvg } from "#server/db/sample-catalogue/drawing.ts";
import type { MediaStore } from "#server/media/media-store.ts";
import { parseImageVariantFile, writeDrawingVariantIfMissing } from "./images";

let drawings: Map<string, () => string> | null = null;

/** Every sample picture's key and how to draw it, built on first use. */
function sampleDrawings() {
  drawings ??= new Map(
    sampleCatalogue.flatMap((product) =>
      product.images.map((image) => [
        image.key,
        () => renderProductSvg({ label: product.nameIt, colour: image.colour, categorySlug: product.categorySlug, view: image.position }),
      ]),
    ),
  );
  return drawings;
}

/**
 * Stores the file named `file` (`sample-12-3-320.avif`) in `store` when it is one of the sample
 * catalogue's variants and is missing. False when the name is not a sample picture's: nothing is drawn.
 */
export async function drawSamplePictureFile(store: MediaStore, file: string): Promise<boolean> {
  const variant = parseImageVariantFile(file);
  const svg = variant && sampleDrawings().get(variant.key);
  if (!variant || !svg) return false;
  await writeDrawingVariantIfMissing(store, variant, svg);
  return true;
}

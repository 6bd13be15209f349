import { data } from "react-router";
import { z } from "zod";
import { readClaimPhoto } from "#server/guarantee/claims.service.ts";
import { getSessionUser } from "#server/http/guards.ts";
import { shopContext } from "#server/http/context.ts";
import { claimantOf } from "./guarantee-request.server";
import type { Route } from "./+types/claim-photo";

const PhotoParams = z.object({ photoId: z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER) });

/** A claim's photo, for its buyer (account or order link) or the staff: private, never kept by a cache. */
export async function loader({ params, url, request, context }: Route.LoaderArgs) {
  const { orderId, proof } = await claimantOf(context, request, url, params);
  const photo = PhotoParams.safeParse(params);
  if (!photo.success) throw data(null, { status: 404 });
  const user = await getSessionUser(context, request);
  const db = context.get(shopContext).db;
  const body = await readClaimPhoto(db, { orderId, photoId: photo.data.photoId, proof: user?.role === "admin" ? "staff" : proof });
  if (!body) throw data(null, { status: 404 });
  return new Response(new Uint8Array(body), {
    headers: { "Content-Type": "image/webp", "Cache-Control": "private, no-store", "X-Content-Type-Options": "nosniff" },
  });
}

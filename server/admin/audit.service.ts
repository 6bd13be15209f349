/**
 * The back office's record of who changed what and when. Every admin action writes its row with
 * `recordAudit(tx, ...)` inside the same transaction as the change: no change without its row,
 * no row for a change that was rolled back.
 */
import { and, count, desc, eq, type SQL } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { pageOf } from "#server/db/paging.ts";
import { auditLog, users } from "#server/db/schema.ts";

export type AuditEntry = {
  actorUserId: string | null;
  /** What happened, dotted: "product.create", "stock.adjust", "import.csv". */
  action: string;
  /** The kind of thing changed: "product", "variant", "import". */
  entity: string;
  entityId: string | number | null;
  details?: Record<string, unknown>;
};

export async function recordAudit(tx: Db, entry: AuditEntry): Promise<void> {
  await tx.insert(auditLog).values({
    actorUserId: entry.actorUserId,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId === null ? null : String(entry.entityId),
    details: entry.details ?? {},
  });
}

export const auditPageSize = 50;

export type AuditRow = {
  id: number;
  createdAt: string;
  action: string;
  entity: string;
  entityId: string | null;
  actorName: string | null;
  actorEmail: string | null;
  details: Record<string, unknown>;
};

export type AuditFilters = { entity?: string | null; actor?: string | null; page?: number };

/** Newest first; `actor` is a user id or an e-mail. */
export async function listAudit(
  db: Db,
  filters: AuditFilters,
): Promise<{ rows: AuditRow[]; total: number; page: number; pageCount: number; entities: string[] }> {
  const conditions: SQL[] = [];
  if (filters.entity) conditions.push(eq(auditLog.entity, filters.entity));
  if (filters.actor) {
    const [actor] = await db
      .select({ id: users.id })
      .from(users)
      .where(filters.actor.includes("@") ? eq(users.email, filters.actor.toLowerCase()) : eq(users.id, filters.actor));
    conditions.push(eq(auditLog.actorUserId, actor?.id ?? "-"));
  }
  const where = conditions.length ? and(...conditions) : undefined;
  const [{ value: total } = { value: 0 }] = await db.select({ value: count() }).from(auditLog).where(where);
  const { page, pageCount, offset } = pageOf(filters.page, total, auditPageSize);
  const rows = await db
    .select({
      id: auditLog.id,
      createdAt: auditLog.createdAt,
      action: auditLog.action,
      entity: auditLog.entity,
      entityId: auditLog.entityId,
      details: auditLog.details,
      actorName: users.name,
      actorEmail: users.email,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorUserId))
    .where(where)
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(auditPageSize)
    .offset(offset);
  const entities = (await db.selectDistinct({ entity: auditLog.entity }).from(auditLog).orderBy(auditLog.entity)).map((row) => row.entity);
  return { rows: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })), total, page, pageCount, entities };
}

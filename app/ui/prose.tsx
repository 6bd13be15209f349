import { useTranslation } from "react-i18next";

/**
 * A translated list (a JSON array in messages/*.json) as a bullet list, with the same
 * interpolation values as `t()`.
 */
export function TranslatedList({ messageKey, values }: { messageKey: string; values?: Record<string, string | number> }) {
  const { t } = useTranslation();
  const items = t(messageKey, { ...values, returnObjects: true }) as unknown;
  if (!Array.isArray(items) || items.length === 0) return null;
  return (
    <ul>
      {items.map((item) => (
        <li key={String(item)}>{String(item)}</li>
      ))}
    </ul>
  );
}

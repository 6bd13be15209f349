/** A car seat's or stroller's specification table (docs/decisions/0101-product-specifications.md): a header cell per row. */
export function ProductSpecsTable({ rows, headingId }: { rows: readonly { label: string; text: string }[]; headingId: string }) {
  if (rows.length === 0) return null;
  return (
    <table aria-labelledby={headingId} className="w-full max-w-xl overflow-hidden rounded-2xl bg-white text-left text-sm shadow-card">
      <tbody>
        {rows.map((row) => (
          <tr key={row.label} className="border-b border-brand-100 last:border-b-0">
            <th scope="row" className="w-1/2 bg-brand-50 px-4 py-2.5 font-semibold">
              {row.label}
            </th>
            <td className="px-4 py-2.5">{row.text}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

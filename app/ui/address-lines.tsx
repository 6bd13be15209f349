import type { Address } from "#server/accounts/address.service.ts";

/** A postal address as the shop and the back office show it; the name and phone when the address has them. */
export type PostalAddress = Pick<Address, "street" | "houseNumber" | "postcode" | "city" | "province" | "country"> &
  Partial<Pick<Address, "firstName" | "lastName" | "phone">>;

/** The address in lines (name, street, town, phone); the country too where staff need it (`withCountry`). */
export function AddressLines({
  address,
  withCountry = false,
  className = "",
}: {
  address: PostalAddress;
  withCountry?: boolean;
  className?: string;
}) {
  return (
    <address className={`not-italic ${className}`.trim()}>
      {address.firstName !== undefined && (
        <span className="block font-semibold">
          {address.firstName} {address.lastName}
        </span>
      )}
      <span className="block">
        {address.street} {address.houseNumber}
      </span>
      <span className="block">
        {address.postcode} {address.city} ({address.province}){withCountry && ` ${address.country}`}
      </span>
      {address.phone && <span className="block text-muted">{address.phone}</span>}
    </address>
  );
}

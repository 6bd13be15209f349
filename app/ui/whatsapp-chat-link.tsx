import { useTranslation } from "react-i18next";
import { whatsappHref } from "#common/shop-contacts.ts";
import { WhatsAppIcon } from "./icons";

/** The floating chat link on every page (docs/rules.md#what-the-shop-is). */
export function WhatsAppChatLink({ whatsapp }: { whatsapp: string }) {
  const { t } = useTranslation();
  return (
    <a
      data-floating-action
      href={whatsappHref(whatsapp)}
      className="fixed right-4 bottom-4 z-30 grid size-14 place-items-center rounded-full bg-[#0b6e4f] text-white shadow-card hover:bg-[#095c42]"
    >
      <WhatsAppIcon size={30} />
      <span className="sr-only">{t("whatsapp.chat")}</span>
    </a>
  );
}

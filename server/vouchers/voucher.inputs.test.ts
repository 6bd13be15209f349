import { expect, test } from "vitest";
import { BuyGiftCardInput, GiftListFundInput, parseVoucherForm } from "./voucher.inputs";

test("an empty gift card form to be mailed reports every field's problem in one round", () => {
  const empty = parseVoucherForm(BuyGiftCardInput, { preset: "", amount: "", senderName: "", recipientName: "", delivery: "email" });
  expect(empty).toEqual({
    ok: false,
    errors: {
      senderName: "vouchers.errors.senderNameRequired",
      recipientName: "vouchers.errors.recipientNameRequired",
      amount: "vouchers.errors.amount",
      recipientEmail: "vouchers.errors.recipientEmail",
      deliverOn: "vouchers.errors.deliverOn",
    },
  });
  // A name too long and a bad day together: both, beside the valid fields.
  const mixed = parseVoucherForm(BuyGiftCardInput, {
    preset: "5000",
    senderName: "x".repeat(101),
    recipientName: "Giulia",
    delivery: "email",
    recipientEmail: "giulia@example.it",
    deliverOn: "2026-02-30",
  });
  expect(mixed).toEqual({ ok: false, errors: { senderName: "vouchers.errors.senderNameTooLong", deliverOn: "vouchers.errors.deliverOn" } });
});

test("a good gift card form: its amount in cents, names tidied, no e-mail or day when printed", () => {
  expect(
    parseVoucherForm(BuyGiftCardInput, {
      preset: "other",
      amount: "42,50",
      senderName: "  Zia   Carla ",
      recipientName: "Giulia",
      delivery: "print",
    }),
  ).toEqual({
    ok: true,
    input: { amountCents: 4250, senderName: "Zia Carla", recipientName: "Giulia", recipientEmail: null, deliverOn: null, message: "" },
  });
  expect(
    parseVoucherForm(BuyGiftCardInput, {
      preset: "2500",
      senderName: "Zia Carla",
      recipientName: "Giulia",
      delivery: "email",
      recipientEmail: " Giulia@Example.it ",
      deliverOn: "2026-03-10",
      message: "Auguri!\r\nCarla",
    }),
  ).toEqual({
    ok: true,
    input: {
      amountCents: 2500,
      senderName: "Zia Carla",
      recipientName: "Giulia",
      recipientEmail: "giulia@example.it",
      deliverOn: "2026-03-10",
      message: "Auguri!\nCarla",
    },
  });
});

test("the owner's fund form: a missing title and a bad target come together", () => {
  expect(parseVoucherForm(GiftListFundInput, { title: "", target: "3" })).toEqual({
    ok: false,
    errors: { title: "vouchers.errors.fundTitleRequired", target: "vouchers.errors.fundTarget" },
  });
  expect(parseVoucherForm(GiftListFundInput, { title: "Per la cameretta", target: "" })).toEqual({
    ok: true,
    input: { title: "Per la cameretta", description: "", targetCents: null },
  });
});

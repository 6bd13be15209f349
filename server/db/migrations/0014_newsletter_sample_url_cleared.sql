-- Custom: the first start stored the sample external newsletter address, which answers nothing. With the
-- shop's own list the footer posts there only when a real address is set, so the sample one is cleared.
UPDATE "shop_settings" SET "value" = '{"url": null}'::jsonb
WHERE "key" = 'newsletter' AND "value"->>'url' = 'https://newsletter.example.com/subscribe/bimbifelici';

-- Values the shop keeps for itself in shop_settings (a key with a colon: "owner-setup:<hash>", decision 0086)
-- show on no page: writing them must not move page_content_version, which drops every kept page (decision 0096).
CREATE FUNCTION bump_page_content_version_for_shown_setting() RETURNS trigger
LANGUAGE plpgsql
AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF strpos(OLD.key, ':') > 0 THEN
      RETURN NULL;
    END IF;
  ELSIF strpos(NEW.key, ':') > 0 AND (TG_OP = 'INSERT' OR strpos(OLD.key, ':') > 0) THEN
    RETURN NULL;
  END IF;
  PERFORM nextval('public.page_content_version');
  RETURN NULL;
END;
$$;
--> statement-breakpoint
DROP TRIGGER shop_settings_page_content_version ON shop_settings;
--> statement-breakpoint
CREATE CONSTRAINT TRIGGER shop_settings_page_content_version AFTER INSERT OR UPDATE OR DELETE ON shop_settings
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_page_content_version_for_shown_setting();

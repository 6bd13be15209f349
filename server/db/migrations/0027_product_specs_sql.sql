-- The product page's specification table, the listing's filters on them and the facet index read
-- product_specs: a change moves the catalogue's version on (0008_catalogue_version), so kept pages and the
-- index are made again (docs/decisions/0101-product-specifications.md).
CREATE CONSTRAINT TRIGGER product_specs_catalogue_version AFTER INSERT OR UPDATE OR DELETE ON product_specs
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION bump_catalogue_version();

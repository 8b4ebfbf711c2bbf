// ElectroDB's `require("jsonschema")` lands here inside Lambda bundles. ElectroDB checks each
// entity's model against a JSON Schema when the entity is built; our models are constants, and
// the test suite builds every entity with the real validator (test/unit/db-entities.test.ts),
// so a Lambda would only repeat, at each cold start, a check that passed before it shipped:
// 28 KB to compile and a schema walk per entity. This validator accepts what the tests accepted.
class Validator {
  addSchema() {}

  validate() {
    return { errors: [] };
  }
}
Validator.prototype.customFormats = {};

module.exports = { Validator };

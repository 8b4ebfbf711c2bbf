// ElectroDB's `require("@aws-sdk/lib-dynamodb")` lands here inside Lambda bundles. An ES module
// reached through require() cannot be tree-shaken, so the real package would bring every
// DynamoDB command and the aggregated client with it; this object is filled instead by the
// ElectroDB facade (electrodb.ts beside it) with the ten commands ElectroDB calls, imported
// the ordinary way.
module.exports = {};

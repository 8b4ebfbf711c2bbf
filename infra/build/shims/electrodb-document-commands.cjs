// ElectroDB's `require("@aws-sdk/lib-dynamodb")` lands here inside Lambda bundles. An ES module
// reached through require() cannot be tree-shaken, so the real package would bring every
// DynamoDB command and the aggregated client with it; this object is filled instead with the
// ten commands ElectroDB calls, which the ElectroDB facade (electrodb.ts beside it) imports the
// ordinary way and hands to electrodb-library.ts when the bundle loads it.
module.exports = {};

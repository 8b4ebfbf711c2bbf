import type * as EntityFactories from '../../../functions/lib/db/entity-factories';
import { loadBeforeFirstCall } from './first-call';

/**
 * What functions/lib/db/entity-factories.ts means inside Lambda bundles: the definitions of the
 * table's entities, some 45 KB minified that every cold start compiled at import, loaded on the
 * bundle's first call from a chunk of their own, beside ElectroDB (electrodb.ts), which is all
 * they are for. The database service reads them only once a request reaches the table (createDb
 * runs inside handlers), after the loaders registered at import have run (first-call.ts). The
 * binding is live: importers see the module's object once it has loaded.
 */
export let entityFactories: typeof EntityFactories.entityFactories;

loadBeforeFirstCall(async () => {
  ({ entityFactories } = await import('../../../functions/lib/db/entity-factories'));
});

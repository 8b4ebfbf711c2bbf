import * as subscriptionRoutes from '../../shared/routes/subscriptions';
import { createHandler } from '../lib/http/create-handler';
import { proProductStock } from './lib/views';

export const handler = createHandler(subscriptionRoutes.getProProductStock, async () => proProductStock());

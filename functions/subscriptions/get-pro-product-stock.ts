import * as ourTransferRoutes from '../../shared/routes/our-transfers';
import { createHandler } from '../lib/http/create-handler';
import { proProductStock } from './lib/views';

export const handler = createHandler(ourTransferRoutes.getProProductStock, async () => proProductStock());

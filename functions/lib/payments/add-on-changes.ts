import type { GatewayAddOn } from './gateway';

/**
 * An add-on change as Braintree takes it: the port says "set these add-ons", Braintree wants to
 * be told which are new (add, inheriting from the plan's add-on of that id), which it has
 * already (update) and which go (remove). Both adapters send it in this shape.
 */
export interface AddOnChanges {
  add: { inheritedFromId: string; amount: string; quantity: number }[];
  update: { existingId: string; amount: string; quantity: number }[];
  remove: string[];
}

export function addOnChanges(
  current: readonly Pick<GatewayAddOn, 'id'>[],
  wanted: readonly GatewayAddOn[] = [],
  removed: readonly string[] = [],
): AddOnChanges {
  const existing = new Set(current.map((addOn) => addOn.id));
  const changes: AddOnChanges = { add: [], update: [], remove: [] };
  for (const addOn of wanted) {
    if (existing.has(addOn.id)) changes.update.push({ existingId: addOn.id, amount: addOn.amount, quantity: addOn.quantity });
    else changes.add.push({ inheritedFromId: addOn.id, amount: addOn.amount, quantity: addOn.quantity });
  }
  // Removing one that is not there is a validation error at Braintree: what is absent is removed already.
  const wantedIds = new Set(wanted.map((addOn) => addOn.id));
  for (const id of removed) if (existing.has(id) && !wantedIds.has(id)) changes.remove.push(id);
  return changes;
}

export const hasAddOnChanges = (changes: AddOnChanges) =>
  changes.add.length > 0 || changes.update.length > 0 || changes.remove.length > 0;

declare const documentCommands: Record<string, unknown>;
export = documentCommands;

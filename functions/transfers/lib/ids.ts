export { newEntityId } from '../../lib/files/stored-files';

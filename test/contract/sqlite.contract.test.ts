import { storeContract } from './store.contract';
import { sqliteFactory } from './sqlite-factory';

storeContract('SQLite', sqliteFactory);

import { closeContract } from './close.contract';
import { sqliteCloseFactory } from './close-factories';

closeContract('SQLite (one desk)', sqliteCloseFactory);

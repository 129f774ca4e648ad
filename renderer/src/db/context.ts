import { createContext, useContext } from 'react';
import type { RefundDeskDb } from './schema';

export const DbContext = createContext<RefundDeskDb | null>(null);

export function useDb(): RefundDeskDb {
  const db = useContext(DbContext);
  if (!db) throw new Error('The local cache is not available.');
  return db;
}

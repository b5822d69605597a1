import { lazy } from './lazy';

export = lazy('undici', false);

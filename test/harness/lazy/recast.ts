import { lazy } from './lazy';

export = lazy('recast', true);

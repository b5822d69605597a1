import { lazy } from './lazy';

export = lazy('esprima-next', true);

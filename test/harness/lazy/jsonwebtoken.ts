import { lazy } from './lazy';

export = lazy('jsonwebtoken', false);

import { lazy } from './lazy';

export = lazy('xml2js', false);

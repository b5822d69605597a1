export { DEFAULT_KEYS, Gate, Simulator, startSimulator } from './server';
export type { SimulatorKeys, SimulatorOptions } from './server';
export { invalid, RequestInvalid, sendError, sendJson, sseEvent, startSse } from './http';
export type { Fault, FaultRule, LoggedRequest, Route, RouteContext } from './types';

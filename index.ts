export { GenerationGatewayApiKeyApi } from './credentials/GenerationGatewayApiKeyApi.credentials';
export { GenerationGatewayBearerApi } from './credentials/GenerationGatewayBearerApi.credentials';
export { GenerationGatewayN8nApi } from './credentials/GenerationGatewayN8nApi.credentials';
export { GenerationGatewayNativeKeyApi } from './credentials/GenerationGatewayNativeKeyApi.credentials';
export { GenerationGateway } from './nodes/GenerationGateway/GenerationGateway.node';
export { GenerationGatewayTrigger } from './nodes/GenerationGatewayTrigger/GenerationGatewayTrigger.node';

/**
 * Idle keep-alive connections between the proxy and the app processes. The proxy must always be the side
 * that closes one: had a process closed it just as nginx sent a request on it, nginx cannot pass a POST
 * (add to cart, checkout) to another process and answers 502. So a process keeps an idle connection
 * longer than nginx keeps it in its upstream cache (Node's own default, 5 s, is far shorter).
 */
export const proxyUpstreamIdleSeconds = 60;
export const appKeepAliveMs = (proxyUpstreamIdleSeconds + 15) * 1000;

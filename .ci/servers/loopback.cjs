// Preloaded into Comunica's Node processes (NODE_OPTIONS=--require): a server that listens
// on a bare port (Comunica's `server.listen(port)`, which binds every interface) listens on
// 127.0.0.1 only. Written for this repository; nothing else is changed.
'use strict';
const net = require('net');
const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  const port = args[0];
  const barePort = typeof port === 'number' || (typeof port === 'string' && /^\d+$/.test(port));
  if (barePort && (args.length === 1 || typeof args[1] === 'function')) {
    args.splice(1, 0, '127.0.0.1');
  }
  return listen.apply(this, args);
};

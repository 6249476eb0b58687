// Apache "combined" access log lines on stdout, which KYMA_INTERNAL_LOGGER_ENABLED turns on (Kyma uses morgan).

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

export function accessLog(req, res, next) {
  const received = new Date();
  res.on('finish', () => {
    const length = res.getHeader('content-length') ?? '-';
    const referrer = req.headers.referer ?? '-';
    const agent = req.headers['user-agent'] ?? '-';
    console.log(`${req.socket.remoteAddress} - - [${clfDate(received)}] ` +
      `"${req.method} ${req.originalUrl} HTTP/${req.httpVersion}" ${res.statusCode} ${length} ` +
      `"${referrer}" "${agent}"`);
  });
  next();
}

function clfDate(date) {
  const pad = (n) => String(n).padStart(2, '0');
  return `${pad(date.getUTCDate())}/${MONTHS[date.getUTCMonth()]}/${date.getUTCFullYear()}:` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())} +0000`;
}

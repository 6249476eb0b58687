module.exports = {
  main: async function (event, context) {
    const name = (event.extensions && event.extensions.request.query.name) || "world";
    return `Hello, ${name}!`;
  }
};

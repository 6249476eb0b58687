const orders = [];

module.exports = {
  main: async function (event, context) {
    if (event.extensions && event.extensions.request.method === "POST") {
      orders.push(event.data);
    }
    return { currency: process.env.CURRENCY, orders };
  }
};

// An orders service in one Function: POST an order with an orderCode to keep it, GET to list the orders kept.
// They live in the Pod's memory, which is enough for a sample; a real one keeps them in a database.
const orders = new Map();

module.exports = {
  main: async function (event, context) {
    const method = event.extensions && event.extensions.request ? event.extensions.request.method : "GET";
    if (method === "POST") {
      const order = event.data || {};
      if (order.orderCode === undefined || order.orderCode === "") {
        return { error: "an order needs an orderCode" };
      }
      orders.set(String(order.orderCode), order);
      return order;
    }
    return [...orders.values()];
  }
};

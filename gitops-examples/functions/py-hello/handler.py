def main(event, context):
    return "Hello from Python"

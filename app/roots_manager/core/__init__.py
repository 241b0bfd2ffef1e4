"""The Qt-free, asyncio-free core: the concepts of the product, one package each."""

print("opsdash")

error-apology = Something went wrong. We are looking into it — please try again a little later.

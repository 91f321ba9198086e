// A second relying party of another implementation for the OpenID Provider browser suites (oidc-rp.ts): an Express
// app signing in with passport-openidconnect (client_secret_post, its only way to send the secret). Prints its port;
// /me shows who.
import express from "express";
import session from "express-session";
import passport from "passport";
import { Strategy } from "passport-openidconnect";

const { ISSUER, CLIENT_ID, CLIENT_SECRET, PORT } = process.env;
const port = Number(PORT);
const base = `http://127.0.0.1:${port}`;

passport.use(
  new Strategy(
    {
      issuer: ISSUER,
      authorizationURL: `${ISSUER}/auth`,
      tokenURL: `${ISSUER}/token`,
      userInfoURL: `${ISSUER}/me`,
      clientID: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      callbackURL: `${base}/callback`,
      scope: ["profile", "email"],
    },
    (_issuer, profile, done) =>
      done(null, { id: profile.id, name: profile.displayName, emails: profile.emails }),
  ),
);
passport.serializeUser((user, done) => done(null, user));
passport.deserializeUser((user, done) => done(null, user));

const app = express();
app.use(session({ secret: "passport test app", resave: false, saveUninitialized: true }));
app.use(passport.session());
app.get("/login", passport.authenticate("openidconnect"));
app.get(
  "/callback",
  passport.authenticate("openidconnect", { failureRedirect: "/failed", successRedirect: "/me" }),
);
app.get("/me", (req, res) => res.json(req.user ?? null));
app.get("/failed", (req, res) =>
  res.status(401).json({ failed: true, messages: req.session.messages ?? [] }),
);
app.listen(port, "127.0.0.1", () => console.log(`listening ${port}`));

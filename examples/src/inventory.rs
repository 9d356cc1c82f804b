//! The `inventory` server: a shop catalog, users and a cart in a real SQLite database.
//!
//! Every tool shows one part of the framework: validated arguments (`add_item`), defaults
//! and enums (`search_items`), `not_found` with a hint (`get_user`), a rate limit with
//! `retryAfter` (`reserve_stock`), and masking of internal errors (`legacy_report`).
//! With [`Inventory::cart_app`] and [`cart_view`], `show_cart` renders the cart in an MCP
//! Apps view, whose buttons call the view-only `remove_cart_line`.

use std::collections::VecDeque;
use std::sync::{LazyLock, Mutex, MutexGuard, PoisonError};
use std::time::{Duration, Instant};

use mcp_tool_runtime::apps::UiResource;
use mcp_tool_runtime::{Json, ToolError, mcp_tool, mcp_tools};
use regex::Regex;
use rusqlite::{Connection, OptionalExtension, params};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// Catalog codes: three capital letters, a dash, four digits.
pub static SKU: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new("^[A-Z]{3}-[0-9]{4}$").unwrap_or_else(|error| unreachable!("fixed pattern: {error}"))
});

/// How many `reserve_stock` calls a process allows per window.
pub const RESERVATIONS_PER_WINDOW: usize = 5;
/// The rolling window of the `reserve_stock` rate limit.
pub const RESERVATION_WINDOW: Duration = Duration::from_secs(60);

/// The shop: a database connection and the recent reservation times.
pub struct Inventory {
    db: Mutex<Connection>,
    reservations: Mutex<VecDeque<Instant>>,
    window: Duration,
}

/// A line of the cart after an `add_item` call.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CartLine {
    /// The catalog code that was added.
    pub sku: String,
    /// How many were added by this call.
    pub quantity: u32,
    /// How many items the cart holds in total now.
    pub cart_total: u64,
}

/// The cart, as `show_cart` and `remove_cart_line` return it and the cart view draws it.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Cart {
    /// The cart's lines, oldest first.
    pub lines: Vec<CartEntry>,
    /// What the whole cart costs, in cents.
    pub total_cents: i64,
}

/// One line of the cart.
#[derive(Debug, Serialize, JsonSchema)]
pub struct CartEntry {
    /// The line's number, which `remove_cart_line` takes.
    pub line: i64,
    /// Catalog code.
    pub sku: String,
    /// Display name.
    pub name: String,
    /// How many.
    pub quantity: u32,
    /// Unit price in cents.
    pub price_cents: i64,
}

/// The URI of the cart view.
pub const CART_VIEW: &str = "ui://inventory/cart";

/// The cart view: one HTML file with its script, inlined at build time, which fetches
/// nothing when it runs (its Content Security Policy allows no outside origin).
pub fn cart_view() -> UiResource {
    UiResource::html(CART_VIEW, include_str!("cart_view.html"))
        .name("Cart")
        .description("The shopping cart, with a button to remove each line.")
        .prefers_border(true)
}

/// One catalog item.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Item {
    /// Catalog code.
    pub sku: String,
    /// Display name.
    pub name: String,
    /// Unit price in cents.
    pub price_cents: i64,
    /// Category tags.
    pub tags: Vec<String>,
}

/// Search results.
#[derive(Debug, Serialize, JsonSchema)]
pub struct SearchResults {
    /// Matching items, in the requested order.
    pub items: Vec<Item>,
}

/// Result order by price.
#[derive(Debug, Clone, Copy, Default, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Sort {
    /// Cheapest first.
    #[default]
    Asc,
    /// Most expensive first.
    Desc,
}

/// A registered user.
#[derive(Debug, Serialize, JsonSchema)]
pub struct User {
    /// User id.
    pub id: i64,
    /// Full name.
    pub name: String,
    /// Email address.
    pub email: String,
}

/// Every registered user.
#[derive(Debug, Serialize, JsonSchema)]
pub struct UserList {
    /// The users, by id.
    pub users: Vec<User>,
}

/// A confirmed stock reservation.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Reservation {
    /// Catalog code.
    pub sku: String,
    /// How many were reserved.
    pub reserved: u32,
    /// Stock left after the reservation.
    pub remaining_stock: i64,
}

/// A yearly sales report.
#[derive(Debug, Serialize, JsonSchema)]
pub struct Report {
    /// The year reported on.
    pub year: u16,
    /// Total revenue in cents.
    pub revenue_cents: i64,
}

const SCHEMA: &str = "
    CREATE TABLE items (
        sku TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        price_cents INTEGER NOT NULL,
        stock INTEGER NOT NULL,
        tags TEXT NOT NULL
    );
    CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL);
    CREATE TABLE cart (sku TEXT NOT NULL REFERENCES items(sku), quantity INTEGER NOT NULL, note TEXT);
    INSERT INTO items VALUES
        ('ABC-0001', 'Espresso beans 1kg', 2450, 40, 'coffee,beans'),
        ('ABC-0002', 'Pour-over kettle', 5900, 12, 'coffee,equipment'),
        ('ABC-0003', 'Ceramic mug', 1200, 100, 'kitchen,mugs'),
        ('DEF-0100', 'Green tea 250g', 1550, 30, 'tea'),
        ('DEF-0101', 'Cast iron teapot', 7400, 5, 'tea,equipment'),
        ('XYZ-9000', 'Milk frother', 3300, 0, 'coffee,equipment');
    INSERT INTO users VALUES
        (1, 'Ada Lovelace', 'ada@example.com'),
        (2, 'Grace Hopper', 'grace@example.com'),
        (3, 'Katherine Johnson', 'katherine@example.com');
";

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    // A panic elsewhere must not take every later call down with a poisoned lock.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

impl Inventory {
    /// A fresh shop in an in-memory SQLite database, created and seeded now.
    pub fn open() -> rusqlite::Result<Self> {
        Self::open_with_window(RESERVATION_WINDOW)
    }

    /// A fresh shop whose `reserve_stock` rate limit uses `window` instead of
    /// [`RESERVATION_WINDOW`], so that tests of the limit need not wait a minute.
    pub fn open_with_window(window: Duration) -> rusqlite::Result<Self> {
        let db = Connection::open_in_memory()?;
        db.execute_batch(SCHEMA)?;
        Ok(Self {
            db: Mutex::new(db),
            reservations: Mutex::new(VecDeque::new()),
            window,
        })
    }

    fn item_exists(db: &Connection, sku: &str) -> rusqlite::Result<bool> {
        db.query_row("SELECT 1 FROM items WHERE sku = ?1", [sku], |_| Ok(()))
            .optional()
            .map(|found| found.is_some())
    }

    fn cart(db: &Connection) -> rusqlite::Result<Cart> {
        let mut statement = db.prepare(
            "SELECT cart.rowid, cart.sku, items.name, cart.quantity, items.price_cents \
             FROM cart JOIN items ON items.sku = cart.sku ORDER BY cart.rowid",
        )?;
        let lines = statement
            .query_map([], |row| {
                Ok(CartEntry {
                    line: row.get(0)?,
                    sku: row.get(1)?,
                    name: row.get(2)?,
                    quantity: row.get(3)?,
                    price_cents: row.get(4)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        let total_cents = lines
            .iter()
            .map(|line| line.price_cents * i64::from(line.quantity))
            .sum();
        Ok(Cart { lines, total_cents })
    }

    fn unknown_sku(sku: &str) -> ToolError {
        ToolError::not_found(format!("No item with SKU '{sku}' is in the catalog."))
            .with_hint("Use search_items to find valid SKUs.")
    }

    /// Counts a reservation against the rolling window, or says how long to wait.
    fn admit_reservation(&self) -> Result<(), ToolError> {
        let now = Instant::now();
        let mut recent = lock(&self.reservations);
        while recent
            .front()
            .is_some_and(|&at| now.duration_since(at) >= self.window)
        {
            recent.pop_front();
        }
        if recent.len() >= RESERVATIONS_PER_WINDOW {
            let oldest = recent.front().copied().unwrap_or(now);
            let wait = self.window.saturating_sub(now.duration_since(oldest));
            return Err(ToolError::rate_limited(format!(
                "reserve_stock allows {RESERVATIONS_PER_WINDOW} calls per {} seconds.",
                self.window.as_secs().max(1)
            ))
            .with_retry_after(wait));
        }
        recent.push_back(now);
        Ok(())
    }
}

#[mcp_tools]
impl Inventory {
    /// Add an item to the shopping cart.
    ///
    /// # Arguments
    /// * `sku` - Catalog code of the item.
    /// * `quantity` - How many to add.
    /// * `note` - A note for this cart line, such as a gift message.
    #[mcp_tool(
        read_only = false,
        destructive = false,
        idempotent = false,
        open_world = false
    )]
    pub async fn add_item(
        &self,
        #[validate(regex(path = *SKU))]
        #[arg(example = "ABC-0001")]
        sku: String,
        #[validate(range(min = 1, max = 100))] quantity: u32,
        #[validate(length(max = 200))] note: Option<String>,
    ) -> Result<Json<CartLine>, ToolError> {
        let db = lock(&self.db);
        if !Self::item_exists(&db, &sku)? {
            return Err(Self::unknown_sku(&sku));
        }
        db.execute(
            "INSERT INTO cart (sku, quantity, note) VALUES (?1, ?2, ?3)",
            params![sku, quantity, note],
        )?;
        let cart_total: i64 =
            db.query_row("SELECT COALESCE(SUM(quantity), 0) FROM cart", [], |row| {
                row.get(0)
            })?;
        Ok(Json(CartLine {
            sku,
            quantity,
            cart_total: u64::try_from(cart_total)?,
        }))
    }

    /// Search the catalog by name or SKU.
    ///
    /// # Arguments
    /// * `query` - Text to look for in item names and SKUs (case-insensitive).
    /// * `sort` - Order by price.
    /// * `limit` - At most this many results.
    /// * `tags` - Only items that have every one of these tags, such as "coffee".
    #[mcp_tool(read_only, open_world = false)]
    pub fn search_items(
        &self,
        #[validate(length(min = 1, max = 100))] query: String,
        #[arg(default)] sort: Sort,
        #[validate(range(min = 1, max = 50))]
        #[arg(default = 10)]
        limit: Option<u8>,
        #[arg(default)] tags: Vec<String>,
    ) -> Result<Json<SearchResults>, ToolError> {
        let order = match sort {
            Sort::Asc => "ASC",
            Sort::Desc => "DESC",
        };
        let db = lock(&self.db);
        let mut statement = db.prepare(&format!(
            "SELECT sku, name, price_cents, tags FROM items
             WHERE instr(lower(name), lower(?1)) > 0 OR instr(lower(sku), lower(?1)) > 0
             ORDER BY price_cents {order}, sku"
        ))?;
        let rows = statement.query_map([&query], |row| {
            let tags: String = row.get(3)?;
            Ok(Item {
                sku: row.get(0)?,
                name: row.get(1)?,
                price_cents: row.get(2)?,
                tags: tags.split(',').map(str::to_string).collect(),
            })
        })?;
        let mut items = Vec::new();
        for item in rows {
            let item = item?;
            if tags.iter().all(|tag| item.tags.contains(tag)) {
                items.push(item);
            }
        }
        items.truncate(usize::from(limit.unwrap_or(10)));
        Ok(Json(SearchResults { items }))
    }

    /// Look up one user by id.
    ///
    /// # Arguments
    /// * `user_id` - The user's numeric id.
    // A lookup by primary key in an in-memory table takes microseconds, less than the hand-off
    // to the sync tools' pool: written `async`, it runs on the executor, whose thread it holds
    // no longer than a hand-off would.
    #[mcp_tool(read_only, open_world = false)]
    pub async fn get_user(
        &self,
        #[validate(range(min = 1))] user_id: i64,
    ) -> Result<Json<User>, ToolError> {
        let db = lock(&self.db);
        let user = db
            .query_row(
                "SELECT id, name, email FROM users WHERE id = ?1",
                [user_id],
                |row| {
                    Ok(User {
                        id: row.get(0)?,
                        name: row.get(1)?,
                        email: row.get(2)?,
                    })
                },
            )
            .optional()?;
        user.map(Json).ok_or_else(|| {
            ToolError::not_found(format!("No user has id {user_id}."))
                .with_hint("Use list_users to see every user and their ids.")
        })
    }

    /// List every registered user.
    #[mcp_tool(read_only, open_world = false)]
    pub fn list_users(&self) -> Result<Json<UserList>, ToolError> {
        let db = lock(&self.db);
        let mut statement = db.prepare("SELECT id, name, email FROM users ORDER BY id")?;
        let users = statement
            .query_map([], |row| {
                Ok(User {
                    id: row.get(0)?,
                    name: row.get(1)?,
                    email: row.get(2)?,
                })
            })?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        Ok(Json(UserList { users }))
    }

    /// Reserve stock of an item for a later order. Limited to 5 calls per minute.
    ///
    /// # Arguments
    /// * `sku` - Catalog code of the item.
    /// * `quantity` - How many units to reserve.
    #[mcp_tool(destructive = false, open_world = false)]
    pub async fn reserve_stock(
        &self,
        #[validate(regex(path = *SKU))]
        #[arg(example = "ABC-0001")]
        sku: String,
        #[validate(range(min = 1, max = 100))] quantity: u32,
    ) -> Result<Json<Reservation>, ToolError> {
        self.admit_reservation()?;
        let db = lock(&self.db);
        let stock: Option<i64> = db
            .query_row("SELECT stock FROM items WHERE sku = ?1", [&sku], |row| {
                row.get(0)
            })
            .optional()?;
        let Some(stock) = stock else {
            return Err(Self::unknown_sku(&sku));
        };
        if stock < i64::from(quantity) {
            return Err(ToolError::conflict(format!(
                "Only {stock} units of '{sku}' are in stock, fewer than the {quantity} requested."
            ))
            .with_hint("Reserve at most the units in stock, or choose another item."));
        }
        db.execute(
            "UPDATE items SET stock = stock - ?1 WHERE sku = ?2",
            params![quantity, sku],
        )?;
        Ok(Json(Reservation {
            sku,
            reserved: quantity,
            remaining_stock: stock - i64::from(quantity),
        }))
    }

    /// Yearly revenue report from the legacy reporting tables.
    ///
    /// # Arguments
    /// * `year` - The calendar year to report on.
    #[mcp_tool(read_only, open_world = false)]
    pub fn legacy_report(
        &self,
        #[validate(range(min = 2000, max = 2100))] year: u16,
    ) -> Result<Json<Report>, ToolError> {
        let db = lock(&self.db);
        // `reports_v2` was never migrated into this database: the query fails, and the
        // framework masks the SQL error for the client while logging it in full.
        let revenue_cents: i64 = db.query_row(
            "SELECT revenue_cents FROM reports_v2 WHERE year = ?1",
            [year],
            |row| row.get(0),
        )?;
        Ok(Json(Report {
            year,
            revenue_cents,
        }))
    }
}

/// The cart's MCP Apps tools: register them with `.tools(Inventory::cart_app())` beside
/// [`cart_view`].
#[mcp_tools(name = cart_app, vis = pub)]
impl Inventory {
    /// Show the shopping cart: its lines and total. Hosts with MCP Apps render it as a
    /// view with a button to remove each line.
    #[mcp_tool(read_only, open_world = false, ui = "ui://inventory/cart")]
    pub fn show_cart(&self) -> Result<Json<Cart>, ToolError> {
        Ok(Json(Self::cart(&lock(&self.db))?))
    }

    /// Remove one line from the shopping cart; for the cart view's buttons only.
    ///
    /// # Arguments
    /// * `line` - The line's number, as show_cart lists it.
    #[mcp_tool(
        destructive,
        idempotent,
        open_world = false,
        ui = "ui://inventory/cart",
        ui_visibility = ["app"]
    )]
    pub fn remove_cart_line(
        &self,
        #[validate(range(min = 1))] line: i64,
    ) -> Result<Json<Cart>, ToolError> {
        let db = lock(&self.db);
        if db.execute("DELETE FROM cart WHERE rowid = ?1", [line])? == 0 {
            return Err(
                ToolError::not_found(format!("The cart has no line {line}."))
                    .with_hint("Call show_cart for the current lines."),
            );
        }
        Ok(Json(Self::cart(&db)?))
    }
}

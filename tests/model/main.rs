//! The game model seen from the service: views, notation and the board images drawn from them.

mod game_model;
mod render_graph;
mod render_images;
mod render_phone;
mod render_pixels;
mod render_readable;
mod visible_names;
